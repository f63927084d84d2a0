"""The shape of typer/_click/core.py at Typer 0.27.1: Command is an ABC
whose main is abstract (core.py:785) and whose __call__ calls it
(core.py:805); contexts come from context_class (core.py:515); params
say their kind in param_type_name (core.py:817, typer/core.py:252, 442)."""

from abc import ABC, abstractmethod


class Context:
    def __init__(self, command, info_name=None, parent=None, resilient_parsing=False, **extra):
        self.command = command
        self.info_name = info_name
        self.parent = parent
        self.resilient_parsing = resilient_parsing


class Command(ABC):
    context_class = Context

    def __init__(self, name, params=None, help=None, short_help=None, hidden=False, deprecated=False, callback=None):
        self.name = name
        self.params = params or []
        self.help = help
        self.short_help = short_help
        self.hidden = hidden
        self.deprecated = deprecated
        self.callback = callback

    def get_short_help_str(self, limit=45):
        return self.short_help or (self.help or "").split(".")[0]

    @abstractmethod
    def main(self, args=None, prog_name=None, **extra):
        pass

    def __call__(self, *args, **kwargs):
        return self.main(*args, **kwargs)


class Parameter(ABC):
    param_type_name = "parameter"

    def __init__(self, opts, type, required=False, default=None, multiple=False, nargs=1, help=None):
        self.opts = opts
        self.secondary_opts = []
        self.name = opts[0].lstrip("-").replace("-", "_")
        self.type = type
        self.required = required
        self.default = default
        self.multiple = multiple
        self.nargs = nargs
        self.help = help
        self.expose_value = True
        self.is_eager = False
