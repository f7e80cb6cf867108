"""Every sentence of the private seat pages (bot/web/private.py), through the catalogs."""

from __future__ import annotations

from i18n import _

SEAT_WORDS = {
    "yours": _("Only you see this part: it is your seat's own view."),
    "keep": _("Keep this link to yourself: anyone who has it sees your hand until it expires."),
    "preview": _("Try a placement"),
    "patch": _("Patch"),
    "leather": _("Leather patch"),
    "orientation": _("Orientation"),
    "square": _("Square (a1 to i9)"),
    "show": _("Show it on my quilt"),
}
EMPTY_RACK = _("Your rack is empty.")
YOUR_HAND = _("Your hand")
NO_CARDS = _("You have no cards in hand.")
PREVIEW_ALT = _("Your quilt with the patch ghosted in place.")
# Why a private link shows nothing private (the public page shows, with this line).
REFUSED = _("This private link does not open a seat: it was changed or cut short, or the seat "
            "has another player now. Use the link in your latest direct message from the bot.")
EXPIRED = _("This private link has expired. Your latest direct message from the bot has a "
            "fresh one.")
OVER = _("The match is over, so this link no longer shows anything private.")
NOT_STARTED = _("The match has not started yet: your hand shows here once it has.")
