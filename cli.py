"""graphmend command line: a thin typer app over the codemods library."""

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
