"""Which sections a file gets, found from the tables it holds: every module
of this package that declares DRAWS (the tables it draws, with what it
draws from each), ORDER and sections(f, options) is one table family, run
when one of its tables is in the file. The benchmark groups no family
claims are drawn by generic.py, so a benchmark new to bwsurvey appears in
the report without a change here."""
import importlib
import os
import pkgutil


def families():
    """The table-family modules of this package, in their ORDER."""
    found = []
    for info in pkgutil.iter_modules([os.path.dirname(os.path.abspath(__file__))]):
        module = importlib.import_module(f"{__package__}.{info.name}")
        if hasattr(module, "DRAWS") and hasattr(module, "sections"):
            found.append(module)
    return sorted(found, key=lambda m: (getattr(m, "ORDER", 1000), m.__name__))


def drawn_tables(modules):
    """{table path: what is drawn from it} over the families."""
    drawn = {}
    for module in modules:
        drawn.update(module.DRAWS)
    return drawn


def claimed_groups(modules):
    """The top-level groups some family draws (their whole group is its)."""
    return {path.split("/", 1)[0] for path in drawn_tables(modules)}


def present(module, f):
    return any(path in f for path in module.DRAWS)
