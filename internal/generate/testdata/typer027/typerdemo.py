"""A CLI on the Typer 0.27 stand-in beside it: no click anywhere."""

from typer import Typer, TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer._click.types import IntRange, StringParamType, TyperChoice

status = TyperCommand("status", help="Say how far behind the remote is.")
push = TyperCommand("push", help="Push the notes. Then say so.", params=[
    TyperOption(["--branch"], StringParamType(), help="The branch."),
    TyperOption(["--retries"], IntRange(0, 5), default=1),
    TyperOption(["--mode"], TyperChoice(["fast", "safe"])),
    TyperArgument(["remote"], StringParamType(), required=True),
])
remote = TyperGroup("remote", {"push": push, "status": status}, help="The remote book.")
app = Typer(TyperGroup("typerdemo", {"remote": remote}, help="Notes on a Typer-like framework.", params=[
    TyperOption(["--profile"], StringParamType(), help="Run as this profile."),
]))


def main():
    app(prog_name="typerdemo")
