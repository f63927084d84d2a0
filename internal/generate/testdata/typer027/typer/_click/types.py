"""Types as typer/_click/types.py at Typer 0.27.1 names them (types.py:144,
312, 320); Typer's own choice type is typer._types.TyperChoice."""


class ParamType:
    pass


class StringParamType(ParamType):
    pass


class IntParamType(ParamType):
    pass


class IntRange(IntParamType):
    def __init__(self, min=None, max=None):
        self.min, self.max = min, max
        self.min_open = self.max_open = False


class TyperChoice(ParamType):
    def __init__(self, choices):
        self.choices = choices
