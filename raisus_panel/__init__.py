"""Risus (라이서스) with Param models and Panel components; see ``docs`` and the notebooks."""


def extension(*args, **kwargs) -> None:
    """Load Panel in a notebook for raisus_panel, offline: see :func:`raisus_panel.notebook.extension`.

    Imported on first call, so that ``import raisus_panel.rules`` stays free of Panel.
    """
    from .notebook import extension as _extension

    _extension(*args, **kwargs)
