from pnpforge.cli import main

main()
