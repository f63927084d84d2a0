"""Loaded only when the reports group's get_command asks for it."""

import click

from clickdemo import emit


@click.command()
@click.option("--month", type=click.IntRange(1, 12), required=True, help="The month.")
def monthly(month):
    """The month's report."""
    emit(command="reports monthly", month=month)
