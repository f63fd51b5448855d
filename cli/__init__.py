"""The `pandora` command line: one module per command, wired in `cli.main`."""
