"""What every notebook output holds, on both sides: the kernel's Bokeh models and the page's.

:func:`kernel_views` runs in the notebook's kernel (the test imports this module there); :data:`PAGE_JS`
runs in the page. Both give, per notebook output (one Bokeh document each), the values of the
properties a person sees -- texts, labels, disabled flags, tooltips, children and the columns of
every ``ColumnDataSource`` -- by model id, in the same plain JSON form, so a test can check that
the page shows exactly what the kernel holds (:func:`differences`).
"""

from __future__ import annotations

import math

#: The properties compared between the kernel and the page.
PROPS = ("text", "label", "disabled", "visible", "value", "options", "content", "description", "children",
         "objects", "data", "title", "object", "css_classes")


def _plain(value, depth=0):
    from bokeh.model import Model

    if depth > 6:
        return "..."
    if isinstance(value, Model):
        return {"id": value.id}
    if type(value).__name__ in ("Value", "Field") and hasattr(value, "transform"):
        return _plain(getattr(value, "value", getattr(value, "field", None)), depth + 1)
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else value
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v, depth + 1) for k, v in value.items()}
    if value is None or isinstance(value, (str, int, bool)):
        return value
    return repr(value)


def kernel_views() -> list[dict]:
    """Per notebook output shown by Panel: ``{"roots": [ids], "models": {id: {"type", prop: value}}}``."""
    import panel as pn
    from bokeh.core.property.descriptors import UnsetValueError

    docs: dict[int, tuple] = {}
    for _, root, doc, comm in list(pn.state._views.values()):
        if comm is None or doc is None:
            continue
        docs.setdefault(id(doc), (doc, set()))[1].add(root.id)
    out = []
    for doc, roots in docs.values():
        models = {}
        for root in doc.roots:
            for model in root.references():
                props = {"type": type(model).__name__}
                for name in PROPS:
                    if name in model.properties():
                        try:
                            props[name] = _plain(getattr(model, name))
                        except UnsetValueError:
                            pass
                models[model.id] = props
        out.append({"roots": sorted(roots), "models": models})
    return out


PAGE_JS = """(props) => {
  const plain = (v, depth = 0) => {
    if (depth > 6) return '...';
    if (v == null) return null;
    if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : v;
    if (typeof v === 'string' || typeof v === 'boolean') return v;
    if (v.id !== undefined && v.properties !== undefined) return {id: v.id};
    if (ArrayBuffer.isView(v)) return Array.from(v, x => plain(x, depth + 1));
    if (v instanceof Map) { const o = {}; for (const [k, x] of v) o[String(k)] = plain(x, depth + 1); return o; }
    if (Array.isArray(v)) return v.map(x => plain(x, depth + 1));
    if (typeof v === 'object') {
      if (v.array !== undefined && v.shape !== undefined) return plain(v.array, depth);
      const ks = Object.keys(v);
      if ((ks.includes('value') || ks.includes('field')) && ks.every(k => ['type', 'value', 'field', 'transform', 'units'].includes(k)))
        return plain(v.value !== undefined ? v.value : v.field, depth + 1);
      const o = {}; for (const k of Object.keys(v)) o[k] = plain(v[k], depth + 1); return o;
    }
    return String(v);
  };
  const out = [];
  for (const doc of Bokeh.documents) {
    const models = {};
    for (const m of doc.all_models) {
      const p = {type: m.type.split('.').pop()};
      for (const name of props) {
        const prop = m.properties[name];
        if (prop === undefined || !prop.syncable) continue;
        if (prop.is_unset) continue;
        p[name] = plain(prop.get_value());
      }
      models[m.id] = p;
    }
    out.push({roots: doc.roots().map(r => r.id).sort(), models});
  }
  return out;
}"""


def _same(a, b) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


def differences(kernel: list[dict], page: list[dict]) -> list[str]:
    """What the page shows differently from the kernel, for every output the kernel shows.

    An output of the kernel whose roots the page does not hold (a cell re-run meanwhile) is skipped;
    within an output, every model of the kernel must be in the page with equal values.
    """
    problems = []
    page_by_root = {}
    for doc in page:
        for root in doc["roots"]:
            page_by_root[root] = doc
    for doc in kernel:
        shown = [page_by_root[r] for r in doc["roots"] if r in page_by_root]
        if not shown:
            continue
        models = shown[0]["models"]
        for mid, props in doc["models"].items():
            if mid not in models:
                problems.append(f"{props['type']} {mid} is not in the page")
                continue
            for name, value in props.items():
                if name == "type" or name not in models[mid]:
                    continue
                if name == "data" and props["type"] != "ColumnDataSource":
                    continue
                if name == "visible" and props["type"] == "Tooltip":
                    continue  # shown while the pointer rests on its button: the page's own state
                if not _same(value, models[mid][name]):
                    problems.append(f"{props['type']} {mid}.{name}: kernel {str(value)[:300]} != page "
                                    f"{str(models[mid][name])[:300]}")
    return problems


def _outputs_models():
    """Every Bokeh model of every notebook output in the kernel, with its output's index."""
    import panel as pn

    seen = {}
    for _, _root, doc, comm in list(pn.state._views.values()):
        if comm is None or doc is None or id(doc) in seen:
            continue
        seen[id(doc)] = [m for r in doc.roots for m in r.references()]
    return list(seen.values())


def _panes(component, kind):
    return [p for p in component.__panel__().select(kind) if p.visible]


#: Parameters a fresh copy of a component is made with, besides ``actions`` and ``lang``.
_COPIED = ("show_team_builders", "learner_view", "character", "max_entries")


def model_problems(*components) -> list[str]:
    """Where the kernel's own models disagree with the game: run in the notebook's kernel.

    Each component's texts and buttons are compared with those of a new component of the same kind
    on the same actions (which shows the state as it is now) and with the Bokeh models of every
    output showing them; every output's chart data is compared with the contest's history.
    """
    import panel as pn
    from bokeh.models import ColumnDataSource

    problems = []
    charts = [c for c in components if type(c).__name__ == "ScoreChart"]
    odds = [c for c in components if type(c).__name__ == "LiveOdds"]
    for component in components:
        if component in charts:
            continue
        name = type(component).__name__
        fresh = type(component)(actions=component.actions, lang=component.lang,
                                **{k: getattr(component, k) for k in _COPIED if k in component.param})
        try:
            for kind, attrs in ((pn.pane.HTML, ("object",)), (pn.widgets.Button, ("label", "disabled"))):
                now = [tuple(getattr(p, a) for a in attrs) for p in _panes(component, kind)]
                want = [tuple(getattr(p, a) for a in attrs) for p in _panes(fresh, kind)]
                if now != want:
                    problems.append(f"{name} {kind.__name__}s: {now} != a new {name}'s {want}")
                for p in _panes(component, kind):
                    for model, _ in list(p._models.values()):
                        if kind is pn.widgets.Button:
                            if (model.label, model.disabled) != (p.label, p.disabled):
                                problems.append(f"{name} Button {model.id} holds {(model.label, model.disabled)}, "
                                                f"its widget {(p.label, p.disabled)}")
                        else:
                            text = p._process_param_change({"object": p.object}).get("text")
                            if model.text != text:
                                problems.append(f"{name} HTML {model.id} holds {model.text[:200]!r}, its pane "
                                                f"{text[:200]!r}")
        finally:
            fresh.dispose()
    contest = components[0].actions.contest if components else None
    history = contest.history if contest is not None else []
    for models in _outputs_models():
        for m in models:
            if not isinstance(m, ColumnDataSource):
                continue
            for chart in charts[:1]:
                if "faces" in m.data:
                    want = {"x": [float(p["x"]) for p in history]}
                    for key, col in chart.columns().items():
                        want[col] = ["NaN" if (v := p["scores"].get(key)) is None else v for p in history]
                    got = {k: _plain(list(m.data.get(k, []))) for k in want}
                    if got != want:
                        problems.append(f"score chart source {m.id} holds {got}, the history {want}")
            if odds and "p_win" in m.data and list(m.data["x"]) != [float(p["x"]) for p in history]:
                problems.append(f"odds source {m.id} holds x {list(m.data['x'])}, the history "
                                f"{[p['x'] for p in history]}")
    return problems
