import click


@click.command()
def report():
    click.echo("a lazily loaded report")
