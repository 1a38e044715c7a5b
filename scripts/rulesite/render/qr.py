"""A QR code of an address, made at build time as inline SVG (segno): no script, no request.

The score pad prints one beside each calculator so that a phone opens the calculator from the
paper. The SVG is a single path in the page's own markup: nothing is loaded from anywhere.
"""

from __future__ import annotations

import io

import segno
from markupsafe import Markup, escape


def qr_svg(address: str, css_class: str = "rs-pad__qr") -> Markup:
    """``address`` as an inline ``<svg>`` QR code (medium error correction, a 4-module quiet
    zone as the standard asks), sized by CSS through its viewBox and named for screen readers
    by ``address`` itself."""
    code = segno.make(address, error="m", micro=False)
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        xmldecl=False,
        svgns=True,
        nl=False,
        omitsize=True,
        border=4,
        svgclass=css_class,
        lineclass=None,
        dark="#000",
        light="#fff",
    )
    svg = out.getvalue().decode("ascii")
    # A name for assistive technology; the address is escaped like any other text.
    label = f' role="img" aria-label="{escape(address)}"'
    return Markup(svg.replace("<svg ", "<svg" + label + " ", 1))
