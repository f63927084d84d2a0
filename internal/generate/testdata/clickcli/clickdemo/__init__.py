"""A small Click CLI the generate tests walk from inside and then serve.

Every verb prints, as JSON, what it was run with, so a test sees exactly
what a tool call rendered. It has what a walk must find: global options,
choices, ranges (an open one), repeatable options, a --x/--no-x pair, a
variadic argument, the CLI's own confirmation (--yes), a password prompt,
hidden and deprecated verbs, a lazily loaded group (Click's documented
pattern), and a group that is not a click.Group (as Typer 0.27's are not).
"""

import importlib
import json

import click


def emit(**values):
    click.echo(json.dumps(values, sort_keys=True))


class LazyGroup(click.Group):
    """Imports its subcommands on first use (Click's documentation's
    LazyGroup): until get_command runs, they do not exist."""

    def __init__(self, *args, lazy_subcommands=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy_subcommands = lazy_subcommands or {}

    def list_commands(self, ctx):
        return sorted(super().list_commands(ctx) + list(self.lazy_subcommands))

    def get_command(self, ctx, name):
        if name in self.lazy_subcommands:
            module, attr = self.lazy_subcommands[name].rsplit(".", 1)
            return getattr(importlib.import_module(module), attr)
        return super().get_command(ctx, name)


class DuckGroup(click.Command):
    """A group that is not a click.Group — as Typer 0.27's groups are
    Commands with list_commands and get_command: a walk that checks the
    class finds nothing under it."""

    def __init__(self, name, commands, **kwargs):
        super().__init__(name, context_settings={"ignore_unknown_options": True, "allow_extra_args": True}, **kwargs)
        self.commands = commands

    def list_commands(self, ctx):
        return sorted(self.commands)

    def get_command(self, ctx, name):
        return self.commands.get(name)

    def invoke(self, ctx):
        if not ctx.args:
            raise click.UsageError("a command is needed: " + ", ".join(self.list_commands(ctx)))
        name, rest = ctx.args[0], ctx.args[1:]
        cmd = self.get_command(ctx, name)
        if cmd is None:
            raise click.UsageError("no command " + name)
        with cmd.make_context(name, rest, parent=ctx) as sub:
            return cmd.invoke(sub)


@click.group()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@click.option("--profile", help="Run as this profile.")
@click.option("--verbose", is_flag=True, help="Say more on stderr.")
@click.version_option("1.0")
@click.pass_context
def cli(ctx, fmt, profile, verbose):
    """Notes kept in a local book (a demo of a Click CLI)."""
    ctx.obj = {"format": fmt, "profile": profile}


@cli.command()
@click.argument("name")
@click.option("--count", type=click.IntRange(1, 5), default=1, show_default=True, help="How many times.")
@click.option("--shout/--no-shout", default=False, help="In capitals.")
@click.option("--tag", multiple=True, help="A tag (repeatable).")
@click.pass_obj
def greet(obj, name, count, shout, tag):
    """Greet someone. Prints the greeting as JSON.

    \b
    The greeting is repeated COUNT times.
    \f
    Internal notes that help does not show.
    """
    text = ("HELLO " if shout else "Hello ") + name
    emit(command="greet", greeting=[text] * count, tag=list(tag), **obj)


@cli.group()
def book():
    """The book of notes."""


@book.command("list")
@click.option("--year", type=int, required=True, help="The year.")
@click.option("--period", type=click.Choice(["1T", "2T", "3T", "4T"]), help="The quarter.")
@click.option("--limit", type=click.IntRange(min=0, min_open=True), help="At most this many (more than 0).")
@click.option("--ratio", type=click.FloatRange(0, 1), default=0.5, help="A share.")
@click.option("--since", type=click.DateTime(formats=["%Y-%m-%d"]), help="Only since then.")
@click.pass_obj
def book_list(obj, year, period, limit, ratio, since):
    """List the notes of a period."""
    emit(command="book list", year=year, period=period, limit=limit, ratio=ratio, **obj)


@book.command()
@click.argument("entry_id")
@click.confirmation_option(prompt="Remove it for good?")
@click.pass_obj
def remove(obj, entry_id):
    """Remove a note for good."""
    emit(command="book remove", entry_id=entry_id, **obj)


@book.command()
@click.argument("entry_id")
@click.argument("tags", nargs=-1)
def tag(entry_id, tags):
    """Tag a note."""
    emit(command="book tag", entry_id=entry_id, tags=list(tags))


@book.command(hidden=True)
def dump():
    """Dump the raw book (for debugging)."""
    emit(command="book dump")


@book.command(deprecated=True)
def legacy():
    """The old listing."""
    emit(command="book legacy")


@cli.command()
@click.option("--user", required=True)
@click.option("--password", prompt=True, hide_input=True)
def login(user, password):
    """Log in to the shared book."""
    emit(command="login", user=user, password_given=bool(password))


@click.command()
@click.option("--dry-run", is_flag=True)
def sync(dry_run):
    """Sync with the remote."""
    emit(command="remote sync", dry_run=dry_run)


@click.command()
def status():
    """Say how far behind the remote is."""
    emit(command="remote status")


cli.add_command(LazyGroup("reports", lazy_subcommands={"monthly": "clickdemo.lazy_reports.monthly"},
                          help="Reports, loaded on first use."))
cli.add_command(DuckGroup("remote", {"sync": sync, "status": status}, help="The remote book."))


def main():
    cli(prog_name="clickdemo")
