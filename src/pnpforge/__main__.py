from pnpforge.cli import run

run()
