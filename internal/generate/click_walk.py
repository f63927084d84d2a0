# Walks a Click (or Typer) CLI's command tree from inside, with the CLI's
# own interpreter, and writes it as a command tree (the format of the real
# aeat's commands.json) for `aeat-mcp generate --from click:PROGRAM`.
#
#   python click_walk.py OUT PROGRAM
#
# PROGRAM is the CLI's console script (or any Python file, or a zip such as
# a Windows launcher's). It is run as __main__ with the frameworks' entry
# points patched: the first command it starts is walked instead of run,
# and the tree goes to OUT (not stdout: a CLI may print as it imports).
# Nothing of the CLI's own code runs past the point where it would parse
# its arguments; should no entry point be caught, its argv is --help.
#
# The frameworks: Click, and the copy of Click that Typer 0.27 ships as
# typer._click (Typer no longer depends on Click: its commands are no
# click.Command, its groups no click.Group). Everything is therefore read
# by what it has, not what class it is: a group is anything with
# list_commands and get_command (get_command loads a lazy one), a param's
# kind is its param_type_name, a type is known by the names of its classes.
# Python 3.8+; Click 7+.

import enum
import importlib
import inspect
import json
import os
import runpy
import sys

MAX_DEPTH = 32

# The modules whose Command classes start a CLI.
FRAMEWORKS = ["click.core", "typer._click.core"]


class Walked(BaseException):
    """Unwinds the CLI's own code (a BaseException: its except Exception
    clauses let it through) once the tree is written."""


def is_group(cmd):
    return callable(getattr(cmd, "list_commands", None)) and callable(getattr(cmd, "get_command", None))


def text(v):
    return v if isinstance(v, str) else None


def jsonable(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, enum.Enum):
        return jsonable(v.value)
    if isinstance(v, (list, tuple)):
        out = [jsonable(e) for e in v]
        if any(o is None and e is not None for o, e in zip(out, v)):
            return None
        return out
    return None  # a callable default, Click's UNSET sentinel, an object


# Type names as the command tree (commands.json) writes them, by the name
# of a class of the type: a subclass of IntRange is still an int range.
TYPE_NAMES = [
    ("IntRange", "int range"), ("FloatRange", "float range"), ("DateTime", "datetime"),
    ("UUIDParameterType", "uuid"), ("File", "file"), ("Tuple", "tuple"), ("BoolParamType", "boolean"),
    ("IntParamType", "int"), ("FloatParamType", "float"), ("StringParamType", "str"),
    ("FuncParamType", "function"),
]


def type_name(t):
    if hasattr(t, "choices"):
        return "choice"  # click.Choice, Typer's TyperChoice
    names = [k.__name__ for k in type(t).__mro__]
    for cls, name in TYPE_NAMES:
        if cls in names:
            return name
    if "Path" in names:
        if not getattr(t, "file_okay", True):
            return "directory"
        if not getattr(t, "dir_okay", True):
            return "file"
        return "path"
    return type(t).__name__.lower()


def choice_text(c):
    if isinstance(c, enum.Enum):
        return c.name
    return str(c)


def param_entry(p):
    kind = getattr(p, "param_type_name", None)
    if kind not in ("option", "argument"):
        kind = "option" if "Option" in [k.__name__ for k in type(p).__mro__] else "argument"
    d = {
        "name": p.name,
        "kind": kind,
        "opts": list(getattr(p, "opts", []) or []),
        "secondary": list(getattr(p, "secondary_opts", []) or []),
        "type": type_name(p.type),
        "required": bool(getattr(p, "required", False)),
        "multiple": bool(getattr(p, "multiple", False)),
        "nargs": getattr(p, "nargs", 1),
        "is_flag": bool(getattr(p, "is_flag", False)),
        "count": bool(getattr(p, "count", False)),
        "hidden": bool(getattr(p, "hidden", False)),
        "prompt": bool(getattr(p, "prompt", None)),
        "hide_input": bool(getattr(p, "hide_input", False)),
        "eager": bool(getattr(p, "is_eager", False)),
        "envvar": p.envvar if isinstance(getattr(p, "envvar", None), (str, list)) else None,
        "default": None if callable(getattr(p, "default", None)) else jsonable(getattr(p, "default", None)),
    }
    if not getattr(p, "expose_value", True):
        d["expose_value"] = False
    choices = getattr(p.type, "choices", None)
    if choices is not None:
        d["choices"] = [choice_text(c) for c in choices]
    for end in ("min", "max"):
        if hasattr(p.type, end):
            d[end] = jsonable(getattr(p.type, end))
            d[end + "_open"] = bool(getattr(p.type, end + "_open", False))
    h = text(getattr(p, "help", None))
    if h:
        d["help"] = h
    return d


def short_help(cmd):
    try:
        return cmd.get_short_help_str(limit=300)
    except Exception:
        return text(getattr(cmd, "short_help", None)) or ""


def entry(cmd, path, group):
    d = {
        "path": path,
        "hidden": bool(getattr(cmd, "hidden", False)),
        "deprecated": bool(getattr(cmd, "deprecated", False)),
        "params": [param_entry(p) for p in getattr(cmd, "params", []) or [] if hasattr(p, "opts")],
        "help": inspect.cleandoc(text(getattr(cmd, "help", None)) or ""),
        "short_help": short_help(cmd),
    }
    if group:
        d["group"] = True
    return d


def context(cmd, name, parent):
    """A context for cmd, of its own framework's kind, that parses nothing."""
    make = getattr(cmd, "context_class", None)
    if make is None:
        make = type(parent) if parent is not None else importlib.import_module("click").Context
    return make(cmd, info_name=name, parent=parent, resilient_parsing=True)


def walk(cmd, ctx, path, out, depth):
    group = is_group(cmd)
    e = entry(cmd, path, group)
    if not path:
        e["program"] = ctx.info_name
    if not group or not path or e["params"]:
        out.append(e)
    if not group or depth >= MAX_DEPTH:
        return
    for name in cmd.list_commands(ctx):
        sub = cmd.get_command(ctx, name)  # imports a lazily loaded group
        if sub is None:
            continue
        walk(sub, context(sub, name, ctx), path + [name], out, depth + 1)


def main():
    out_path, program = sys.argv[1], sys.argv[2]
    state = {"done": False}

    def intercept(self, *args, **kwargs):
        if state["done"]:
            raise Walked()
        state["done"] = True
        name = kwargs.get("prog_name") or os.path.basename(program)
        for suffix in ("-script.pyw", "-script.py", ".exe", ".py"):
            if name.endswith(suffix):
                name = name[: -len(suffix)]
        tree = []
        walk(self, context(self, name, None), [], tree, 0)
        with open(out_path, "w", encoding="utf-8") as f:
            json.dump(tree, f, ensure_ascii=False, indent=1)
        raise Walked()

    intercept.walker = True

    def patch(klass):
        for attr in ("main", "__call__"):
            if attr in vars(klass) and not getattr(vars(klass)[attr], "walker", False):
                setattr(klass, attr, intercept)

    def patch_tree(base):
        # The base and its ancestors, every subclass defined so far, and —
        # through __init_subclass__ — every one the CLI defines later (a
        # Command subclass may override main; Typer's do).
        for klass in base.__mro__:
            if klass is not object:
                patch(klass)
        todo = list(base.__subclasses__())
        while todo:
            klass = todo.pop()
            patch(klass)
            todo.extend(klass.__subclasses__())

        def init_subclass(cls, **kwargs):
            super(base, cls).__init_subclass__(**kwargs)
            patch(cls)

        base.__init_subclass__ = classmethod(init_subclass)

    found = []

    def patch_module(name, core):
        patch_tree(core.Command)
        found.append(name.split(".")[0])

    class PatchOnImport:
        """Patches a framework imported only once the CLI runs (a CLI that
        puts its own path on sys.path first, a zipapp)."""

        def find_spec(self, name, path, target=None):
            if name not in FRAMEWORKS:
                return None
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(name, path, target)
                if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    run = spec.loader.exec_module

                    def exec_module(module, run=run):
                        run(module)
                        patch_module(name, module)

                    spec.loader.exec_module = exec_module
                    return spec
            return None

    for module in FRAMEWORKS:
        try:
            patch_module(module, importlib.import_module(module))
        except ImportError:
            pass
    sys.meta_path.insert(0, PatchOnImport())
    # Should nothing be caught, the CLI only shows its help.
    sys.argv = [program, "--help"]
    try:
        runpy.run_path(program, run_name="__main__")
    except Walked:
        sys.exit(0)
    except SystemExit as e:
        if state["done"]:
            sys.exit(0)
        fail("%s exited (%s) before it started a command" % (program, e.code), found)
    except Exception as e:
        fail("%s failed as it started: %s: %s" % (program, type(e).__name__, e), found)
    fail("%s ran to its end without starting a command" % program, found)


def fail(what, found):
    if not found:
        sys.stderr.write("click_walk: %s; this Python imported neither click nor typer: is it the CLI's own interpreter? (pass --python)\n" % what)
        sys.exit(3)
    sys.stderr.write("click_walk: %s of %s: is it a Click or Typer CLI?\n" % (what, " or ".join(sorted(set(found)))))
    sys.exit(4)


if __name__ == "__main__":
    main()
