"""The bot's own web pages (GAMENIGHT_WEB_PORT): each match's live page and its replay, at
unguessable links, below the Discord line: what the channel sees, never a hidden hand."""
