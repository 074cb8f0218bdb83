"""raisus_panel.notebook's fixes of Panel's notebook plumbing: each is still needed, and each works.

Each fix is a shim over a Panel private (see raisus_panel/notebook.py). The ``upstream_*`` tests
show the fault in the installed Panel without the shim: when one fails, Panel fixed it, and the
shim can go. No browser and no kernel here; tests/jupyterlab/test_notebook_views.py checks the
whole in JupyterLab.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import panel as pn
import pytest
from bokeh.document import Document
from bokeh.models import Div, ImportedStyleSheet
from panel.io.notebook import JupyterCommManagerBinary, push
from panel.io.state import set_curdoc, state
from panel.reactive import Syncable
from pyviz_comms import Comm, JupyterComm

from raisus_panel import notebook, upstream


@pytest.fixture
def fixed(monkeypatch):
    """Panel with raisus_panel's fixes, restored afterwards (other tests see Panel as it is)."""
    monkeypatch.setattr(JupyterCommManagerBinary, "server_comm", JupyterCommManagerBinary.server_comm)
    monkeypatch.setattr(Syncable, "_process_param_change", Syncable.__dict__["_process_param_change"])
    assert notebook.fix_panel()
    yield


@pytest.fixture
def unfixed(monkeypatch):
    """Panel as it is, even if an earlier notebook in this process applied the fixes."""
    original = getattr(Syncable.__dict__["_process_param_change"], "raisus_original", None)
    if original is not None:
        monkeypatch.setattr(Syncable, "_process_param_change", original)
    monkeypatch.setattr(JupyterCommManagerBinary, "server_comm", JupyterComm)


# -- the page echoes the kernel's changes back ------------------------------------------------------
def _document_changed_js() -> str:
    js = (Path(pn.__file__).parent / "dist" / "panel.js").read_text(encoding="utf-8")
    start = js.index("_document_changed(event) {")
    return js[start:js.index("_extract_buffers(", start)]


def test_upstream_comm_manager_sends_the_kernel_its_own_changes_back():
    """Panel's CommManager forwards every document event, also those applied from the kernel
    (``sync`` false), which BokehJS's own client session filters out."""
    body = _document_changed_js()
    assert "this._event_buffer.push(event)" in body
    assert not re.search(r"\.sync\b", body), "Panel now skips the kernel's own changes: NO_ECHO_JS can go"


def test_no_echo_shim_names_what_it_patches():
    assert 'Bokeh.Models.get("panel.models.comm_manager.CommManager")' in notebook.NO_ECHO_JS
    assert "proto._document_changed" in notebook.NO_ECHO_JS and "event.sync === false" in notebook.NO_ECHO_JS


# -- messages made before the page opened the comm ----------------------------------------------------
class FakeJupyterComm:
    """Records what is sent on a Jupyter comm: the text of each message's content."""

    def __init__(self, sent):
        self.sent = sent

    def send(self, data=None, metadata=None, buffers=None):
        if isinstance(data, str) and '"events"' in data:
            self.sent.extend(e["new"] for e in json.loads(data)["events"])

    def on_msg(self, callback):
        pass

    def close(self):
        pass


def _changes(comm, open_comm):
    """Change a Div twice, the page opening the comm in between; the texts in the order sent."""
    doc = Document()
    div = Div(text="a")
    doc.add_root(div)
    doc.hold("combine")
    push(doc, comm)  # the initial state: nothing to send
    div.text = "before the page opened the comm"
    push(doc, comm)
    open_comm()
    div.text = "after"
    push(doc, comm)
    return doc


def test_upstream_push_lets_a_later_message_overtake_a_deferred_one(unfixed):
    sent = []
    comm = JupyterComm()

    def open_comm():
        comm._comm = FakeJupyterComm(sent)
    _changes(comm, open_comm)
    # Panel's push deferred the first change on a timer (not run here); the second went out at once
    assert sent == ["after"], "Panel now keeps the order of a comm's messages: OrderedComm can go"


def test_ordered_comm_sends_in_order_once_the_page_opens_it(fixed, monkeypatch):
    sent = []
    monkeypatch.setattr(JupyterComm, "init", lambda self: setattr(self, "_comm", FakeJupyterComm(sent)))
    comm = JupyterCommManagerBinary.get_server_comm()
    assert isinstance(comm, notebook.OrderedComm)
    _changes(comm, comm.init)
    assert sent == ["before the page opened the comm", "after"]
    comm.init()  # opened once: nothing is sent twice
    assert len(sent) == 2


# -- style sheets of one output given to another ------------------------------------------------------
def _click_adds_a_widget_in_the_first_of_two_outputs():
    """A Column shown in two notebook outputs; a click in the first adds a widget type not shown yet."""
    pn.config.inline = False  # the CDN's style sheets are models (inline ones are made per model)
    column = pn.Column(pn.widgets.Button(label="x"))
    docs = []
    for _ in range(2):
        doc = Document()
        doc.add_root(column.get_root(doc, Comm()))
        docs.append(doc)
    with set_curdoc(docs[0]):  # as while Panel handles a click in the first output
        column.append(pn.widgets.ColorPicker())
    return docs


def test_upstream_gives_one_outputs_style_sheets_to_the_other(unfixed, monkeypatch):
    monkeypatch.setattr(pn.config, "_inline", pn.config._inline)
    with pytest.raises(RuntimeError, match="owned by only a single document"):
        _click_adds_a_widget_in_the_first_of_two_outputs()


def test_each_output_gets_style_sheets_of_its_own(fixed, monkeypatch):
    monkeypatch.setattr(pn.config, "_inline", pn.config._inline)
    docs = _click_adds_a_widget_in_the_first_of_two_outputs()
    sheets = [{id(m) for m in doc.models if isinstance(m, ImportedStyleSheet)} for doc in docs]
    assert sheets[0] and sheets[1] and not sheets[0] & sheets[1]


def test_served_documents_keep_panels_cache(fixed):
    """A served session's document is the current one while its models are made: nothing changes."""
    class Served(Document):
        session_context = SimpleNamespace(id="served", request=SimpleNamespace(arguments={}, cookies={},
                                                                               headers={}))
    doc = Served()
    state._stylesheets[doc] = {}  # as when Panel made the page's first models
    with set_curdoc(doc):
        props = pn.widgets.Button(label="x")._process_param_change({"stylesheets": ["a.css"]})
        again = pn.widgets.Button(label="y")._process_param_change({"stylesheets": ["a.css"]})
    first = [s for s in props["stylesheets"] if isinstance(s, ImportedStyleSheet) and s.url == "a.css"]
    second = [s for s in again["stylesheets"] if isinstance(s, ImportedStyleSheet) and s.url == "a.css"]
    assert first and first[0] is second[0]


# -- the notice --------------------------------------------------------------------------------------
def test_the_notice_says_it_in_both_languages_and_hides_itself():
    from raisus_panel.i18n import t

    page = notebook._notice_html()
    for lang in ("ko", "en"):
        assert t("notebook.run_first", lang) in page
    assert "<script>" in page and 'style.display = "none"' in page


# -- pn.ipywidget's view echoes the kernel's changes back ---------------------------------------------
def _jupyter_bokeh_view_js() -> str:
    """The installed jupyter_bokeh lab extension's BokehView (the chunk that defines ``_consume_patch``)."""
    jupyter_bokeh = pytest.importorskip("jupyter_bokeh")
    static = Path(jupyter_bokeh.__file__).parent / "labextension" / "static"
    chunks = [p.read_text(encoding="utf-8") for p in static.glob("*.js")]
    [js] = [c for c in chunks if "_consume_patch(" in c]
    return js


def test_upstream_widget_view_sends_the_kernel_its_own_changes_back():
    """jupyter_bokeh's BokehView keeps the events of a kernel patch and then sends every one of them
    to the kernel, never looking at ``sync`` (BokehJS marks a patch's events ``sync`` false)."""
    js = _jupyter_bokeh_view_js()
    patch = js[js.index("_consume_patch("):]
    assert "this._blocked=!0" in patch and "apply_json_patch" in patch and "_change_event(" in patch, \
        "jupyter_bokeh applies a kernel patch differently now: check NO_ECHO_WIDGETS_JS"
    change = js[js.index("_change_event(e){"):js.index("_consume_patch(")]
    assert not re.search(r"\.sync\b", change), "jupyter_bokeh now skips the kernel's own changes: " \
        "NO_ECHO_WIDGETS_JS can go"


def test_no_echo_widgets_shim_names_what_it_patches():
    js = notebook.NO_ECHO_WIDGETS_JS
    assert 'window._JUPYTERLAB["@bokeh/jupyter_bokeh"]' in js and 'lab.get("./index")' in js
    assert "BokehView" in js and "proto._change_event" in js and "event.sync === false" in js
    assert js.strip() in notebook._notice_html()


# -- the versions the fixes were written for ----------------------------------------------------------
def _bound(name: str) -> str:
    import tomllib

    data = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    deps = data["project"]["dependencies"] + data["project"]["optional-dependencies"]["notebook"]
    [spec] = [d for d in deps if re.match(rf"{name}\b", d)]
    return spec


def test_the_package_allows_only_the_panel_the_fixes_were_written_for():
    """pyproject's bounds are the versions tested: every Panel they allow is one the fixes apply to."""
    from packaging.specifiers import SpecifierSet

    spec = SpecifierSet(_bound("panel").removeprefix("panel"))
    assert pn.__version__ in spec and upstream.tested("panel")
    for version in ("1.8.9", "1.10.0", "2.0.0"):
        assert version not in spec, f"pyproject allows Panel {version}, which the notebook fixes were not tested with"
    assert upstream.TESTED["panel"] + "0" in spec


def test_an_untested_panel_gets_no_fix_and_a_warning(monkeypatch, unfixed, caplog):
    monkeypatch.setattr(pn, "__version__", "1.10.0")
    monkeypatch.setattr(notebook, "_warned", {})
    with caplog.at_level("WARNING", logger="raisus_panel.notebook"):
        assert notebook.fix_panel() is False
    assert JupyterCommManagerBinary.server_comm is JupyterComm
    assert "written for Panel 1.9.x, not 1.10.0" in caplog.text
    caplog.clear()
    with caplog.at_level("WARNING", logger="raisus_panel.notebook"):  # a re-run of the first cell: said once
        assert notebook.fix_panel() is False
    assert "written for Panel" not in caplog.text


# -- BokehJS and Panel from the Jupyter server ---------------------------------------------------------
def test_upstream_extension_loads_through_panels_load_notebook():
    """pn.extension imports load_notebook when called (so extension() can hand it the server loader),
    and load_notebook publishes what _load_notebook_from_jupyter publishes too."""
    import inspect

    from panel.config import panel_extension
    from panel.io import notebook as pn_notebook

    call = inspect.getsource(panel_extension.__call__)
    assert "from .io.notebook import load_notebook" in call and "load_notebook(\n" in call
    load = inspect.getsource(pn_notebook.load_notebook)
    for part in ("_autoload_js(", "'jupyter.css'", "esms-options", "output_notebook()",
                 "PYVIZ_PROXY, _JupyterCommManager.js_manager, nb_mime_js"):
        assert part in load, f"Panel's load_notebook changed ({part}): check _load_notebook_from_jupyter"


def test_upstream_server_extension_serves_bokeh_and_panel_files():
    """Panel's Jupyter server extension serves Bokeh's static files and Panel's dist folder."""
    import inspect

    from panel.io import jupyter_server_extension

    source = inspect.getsource(jupyter_server_extension._load_jupyter_server_extension)
    assert 'r"panel-preview/static/(.*)"' in source and "StaticHandler" in source
    assert 'r"panel_dist/(.*)"' in source and "dict(path=DIST_DIR)" in source


def test_the_server_loader_names_files_the_server_extension_has():
    """Every file the loader asks for is below the Jupyter server's base URL, and exists where Panel's
    extension serves it from: nothing is inlined, nothing comes from a CDN."""
    from bokeh.util.paths import bokehjs_path
    from panel.io.resources import DIST_DIR

    js = notebook._jupyter_server_loader()
    assert js is not None and len(js) < 50_000
    urls = re.findall(r'__raisus_base \+ "([^"]+)"', js)
    assert any("bokeh.min.js" in u for u in urls) and any("panel.min.js" in u for u in urls)
    for url in urls:
        path = url.split("?")[0]
        if path.startswith("panel_dist/"):
            assert (DIST_DIR / path.removeprefix("panel_dist/")).is_file(), url
        else:
            assert path.startswith("panel-preview/static/"), url
            assert (Path(bokehjs_path()) / path.removeprefix("panel-preview/static/")).is_file(), url
    assert "https://" not in js.split("const js_urls", 1)[1].split(";", 1)[0]


# -- style sheets linked on the CDN by models drawn later ---------------------------------------------
def test_upstream_design_links_style_sheets_through_io_resources():
    """A model's design parameters pass its sheets to ``panel.io.resources.patch_stylesheet``, looked
    up when called (not the name panel.reactive imported): both names need the offline shim."""
    import inspect

    from panel.theme.base import Design

    assert "from ..io.resources import CDN_DIST, patch_stylesheet" in inspect.getsource(Design._apply_params)


def test_every_patch_stylesheet_turns_a_cdn_link_into_a_data_url_offline(monkeypatch):
    import panel.io.resources as pn_resources
    import panel.reactive as pn_reactive
    from panel.io.resources import CDN_DIST

    upstream = getattr(pn_reactive.patch_stylesheet, "raisus_original", pn_reactive.patch_stylesheet)
    monkeypatch.setattr(pn_reactive, "patch_stylesheet", upstream)
    monkeypatch.setattr(pn_resources, "patch_stylesheet", upstream)
    monkeypatch.setattr(pn.config, "_inline", pn.config._inline)
    pn.config.inline = True
    assert notebook._inline_stylesheets()
    # a CDN link, and a link to Panel's local dist folder (a model made after the first rendering:
    # the HTML pane 13's table adds when switched to English), which Panel itself turns into a CDN link
    for url in (f"{CDN_DIST}css/loading.css", "static/extensions/panel/css/loading.css"):
        for module in (pn_reactive, pn_resources):
            sheet = ImportedStyleSheet(url=url)
            module.patch_stylesheet(sheet, CDN_DIST)
            assert sheet.url.startswith("data:text/css;base64,"), (module.__name__, url)


def test_the_widgets_shim_follows_the_jupyter_bokeh_it_was_written_for(monkeypatch, caplog):
    jupyter_bokeh = pytest.importorskip("jupyter_bokeh")
    assert upstream.tested("jupyter_bokeh")
    assert _bound("jupyter_bokeh") == "jupyter_bokeh>=4,<5"
    monkeypatch.setattr(jupyter_bokeh, "__version__", "5.0.0")
    monkeypatch.setattr(upstream, "_warned", set())
    with caplog.at_level("WARNING", logger="raisus_panel.notebook"):
        page = notebook._notice_html()
    assert "_change_event" not in page and "jupyter_bokeh 4.x, not 5.0.0" in caplog.text


def test_the_no_echo_shim_follows_the_panel_it_was_written_for(monkeypatch, caplog):
    """Issue 22: NO_ECHO_JS patched Panel's CommManager on any Panel; it reads a private of 1.9's."""
    assert "proto._document_changed" in notebook._notice_html()
    monkeypatch.setattr(pn, "__version__", "1.10.0")
    monkeypatch.setattr(upstream, "_warned", set())
    with caplog.at_level("WARNING", logger="raisus_panel.notebook"):
        page = notebook._notice_html()
        notebook._notice_html()  # a re-run of the first cell: said once
    assert "proto._document_changed" not in page
    assert caplog.text.count("NO_ECHO_JS was written for panel 1.9.x, not 1.10.0") == 1


# -- MainThreadComm: an output's messages handled on the kernel's main thread, in order ----------------
class _PageComm:
    """The kernel's comm object for one output, as ipykernel hands it to a target: an id, and the
    handler the output registers for what the page sends."""

    def __init__(self, comm_id: str):
        self.comm_id = comm_id
        self.handler = None
        self.replies: list[str] = []

    def on_msg(self, handler):
        self.handler = handler

    def send(self, data=None, metadata=None, buffers=None):
        self.replies.append(metadata["msg_type"])


def _message(n: int) -> dict:
    return {"content": {"data": {"n": n}}, "buffers": []}


@pytest.fixture
def main_thread_comm(monkeypatch):
    """A MainThreadComm whose messages are recorded with the thread that handled them, on a real
    tornado IOLoop run by this (the main) thread, as the kernel's is."""
    import threading

    from tornado.ioloop import IOLoop

    loop = IOLoop()
    monkeypatch.setattr(notebook.MainThreadComm, "_loop", loop)
    monkeypatch.setattr(notebook.MainThreadComm, "_early", {})
    handled: list[tuple[int, bool]] = []
    comm = notebook.MainThreadComm.__new__(notebook.MainThreadComm)
    on_main = threading.main_thread
    Comm.__init__(comm, on_msg=lambda msg: handled.append((msg["n"], threading.current_thread() is on_main())))
    yield SimpleNamespace(comm=comm, loop=loop, handled=handled)
    loop.close()


def test_main_thread_comm_handles_a_subshells_messages_on_the_main_thread_in_order(main_thread_comm):
    """Issue 22 left MainThreadComm without a test of its own: what a comm thread (JupyterLab's
    subshell) receives runs on the main thread's loop, one after another, in the order it came."""
    import threading

    nb = main_thread_comm
    page = _PageComm("output-1")
    nb.comm._handle_open(page, {"content": {}})

    def subshell():
        for n in range(50):
            page.handler(_message(n))
        nb.loop.add_callback(nb.loop.stop)

    worker = threading.Thread(target=subshell)
    worker.start()
    worker.join()
    assert nb.handled == [], "nothing of Panel's ran on the comm thread"
    nb.loop.start()
    assert nb.handled == [(n, True) for n in range(50)]
    assert page.replies == ["Ready"] * 50  # each acknowledged, so the page sends on


def test_main_thread_comm_handles_early_messages_first_when_its_comm_opens(main_thread_comm):
    """Messages the page sent before the kernel opened the comm (kept by _keep_early_messages) are
    handled first, in order, then the later ones."""
    nb = main_thread_comm
    notebook.MainThreadComm._early["output-2"] = [_message(0), _message(1)]
    page = _PageComm("output-2")
    nb.comm._handle_open(page, {"content": {}})  # on the main thread: handled at once
    page.handler(_message(2))
    assert nb.handled == [(0, True), (1, True), (2, True)] and page.replies == ["Ready"] * 3
    assert "output-2" not in notebook.MainThreadComm._early


# -- _keep_early_messages: a comm message before its comm opens -----------------------------------------
def test_upstream_kernel_drops_a_message_for_a_comm_it_does_not_know():
    """ipykernel looks each shell message's handler up in ``shell_handlers``; comm's ``comm_msg``
    drops a message for a comm it does not know, and ``on_msg`` keeps a comm's handler in
    ``_msg_callback``: what _keep_early_messages wraps and reads."""
    import inspect

    from comm.base_comm import BaseComm, CommManager
    from ipykernel.ipkernel import IPythonKernel
    from ipykernel.kernelbase import Kernel

    assert "handler = self.shell_handlers.get(msg_type, None)" in inspect.getsource(Kernel)
    assert "self.shell_handlers[msg_type] = getattr(self.comm_manager, msg_type)" in \
        inspect.getsource(IPythonKernel.__init__)
    drop = inspect.getsource(CommManager.comm_msg)
    assert "comm = self.get_comm(comm_id)" in drop and "if comm is None:\n            return" in drop
    assert "self._msg_callback = callback" in inspect.getsource(BaseComm.on_msg)


class _Kernel:
    """As much of an ipykernel kernel as _keep_early_messages touches."""

    def __init__(self):
        self.forwarded: list[dict] = []
        self.comms: dict[str, SimpleNamespace] = {}
        self.shell_handlers = {"comm_msg": lambda stream, ident, msg: self.forwarded.append(msg)}
        self.comm_manager = SimpleNamespace(get_comm=self.comms.get)


def _comm_msg(comm_id: str) -> dict:
    return {"content": {"comm_id": comm_id, "data": {}}}


def test_early_messages_are_kept_until_their_comm_has_a_handler(monkeypatch):
    monkeypatch.setattr(notebook.MainThreadComm, "_early", {})
    kernel = _Kernel()
    notebook._keep_early_messages(kernel)
    kernel.shell_handlers["comm_msg"](None, [], _comm_msg("early"))
    kernel.comms["open"] = SimpleNamespace(_msg_callback=lambda msg: None)
    kernel.shell_handlers["comm_msg"](None, [], _comm_msg("open"))
    assert notebook.MainThreadComm._early == {"early": [_comm_msg("early")]}
    assert kernel.forwarded == [_comm_msg("open")]


def test_early_messages_are_not_kept_on_another_ipykernel(monkeypatch, caplog):
    import ipykernel

    monkeypatch.setattr(ipykernel, "__version__", "8.0.0")
    monkeypatch.setattr(upstream, "_warned", set())
    kernel = _Kernel()
    forward = kernel.shell_handlers["comm_msg"]
    with caplog.at_level("WARNING", logger="raisus_panel.notebook"):
        notebook._keep_early_messages(kernel)
    assert kernel.shell_handlers["comm_msg"] is forward
    assert "early comm messages was written for ipykernel 7.x, not 8.0.0" in caplog.text


def test_the_comms_stay_panels_on_another_pyviz_comms(monkeypatch, unfixed, caplog):
    import pyviz_comms

    monkeypatch.setattr(pyviz_comms, "__version__", "4.0.0")
    monkeypatch.setattr(upstream, "_warned", set())
    with caplog.at_level("WARNING", logger="raisus_panel.notebook"):
        assert notebook._order_comms() is False
    assert JupyterCommManagerBinary.server_comm is JupyterComm
    assert "OrderedComm was written for pyviz_comms 3.x, not 4.0.0" in caplog.text
