"""Slash-command groups every game shares: `/match`, `/gamenight`, and the base of each
game's command group (`/<game> new`, acting, posting boards)."""
