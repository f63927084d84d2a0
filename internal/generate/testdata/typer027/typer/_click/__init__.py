"""A stand-in for the copy of Click that Typer 0.27 ships as typer._click
(typer/_click/__init__.py at Typer 0.27.1): Typer 0.27 no longer depends
on Click, so its commands are no click.Command. Only the shape the walker
meets is here; Typer itself is not installable on the test machines."""

from .core import Command as Command
from .core import Context as Context
from .core import Parameter as Parameter
