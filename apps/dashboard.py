"""The raisus_panel dashboard: ``panel serve apps/dashboard.py`` (the store is ``RAISUS_DB``)."""

import panel as pn

from raisus_panel.dashboard import create_app
from raisus_panel.dashboard.app import CSS

pn.extension(reconnect=True, raw_css=[CSS], notifications=False)
create_app().servable(title="raisus_panel")
