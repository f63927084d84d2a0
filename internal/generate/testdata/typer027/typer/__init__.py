"""The shape of Typer 0.27.1 that the walker meets: Typer.__call__ calls
its click command (typer/main.py:1137); TyperCommand and TyperGroup
subclass typer._click's Command, not click's, and define main themselves
(typer/core.py:909, 997, 1194); a group lists and gets its commands
(typer/core.py:1225, 1050). Running a command prints what it ran."""

import sys

from ._click.core import Command, Parameter


class TyperOption(Parameter):
    param_type_name = "option"


class TyperArgument(Parameter):
    param_type_name = "argument"


class TyperCommand(Command):
    def main(self, args=None, prog_name=None, **extra):
        print("ran", self.name, args if args is not None else sys.argv[1:])
        return 0


class TyperGroup(Command):
    def __init__(self, name, commands, **kwargs):
        super().__init__(name, **kwargs)
        self.commands = commands

    def list_commands(self, ctx):
        return list(self.commands)

    def get_command(self, ctx, name):
        return self.commands.get(name)

    def main(self, args=None, prog_name=None, **extra):
        args = list(sys.argv[1:] if args is None else args)
        if not args or args[0] not in self.commands:
            print("Usage:", prog_name or self.name, "COMMAND")
            return 0
        return self.commands[args[0]].main(args[1:], prog_name=args[0])


class Typer:
    def __init__(self, command):
        self.command = command

    def __call__(self, *args, **kwargs):
        return self.command(*args, **kwargs)
