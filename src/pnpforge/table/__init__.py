"""What happens at the table, for any game: a score file scored, a set-up file read, checked or dealt.

Each module here finds a file's game through the contract (pnpforge.contract) and runs the game's hook
on it; the engines below (pnpforge.scoring, pnpforge.validator) never reach a game themselves.
"""
