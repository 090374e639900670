"""Interactive, offline HTML views of a kg graph: a capped overview, focused neighbourhoods and a browsable site.

Node and edge lists are built with pyvis; pages use kg's own template with vis-network and tom-select
inlined from the pyvis package, so they open without a network connection.
"""
from kg.viz.views import ViewInfo, render_view
from kg.viz.website import render_site

__all__ = ["ViewInfo", "render_site", "render_view"]
