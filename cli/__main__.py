"""`python -m cli` runs the `pandora` command (used by tests as a subprocess)."""

from cli.main import main

main(prog_name="pandora")
