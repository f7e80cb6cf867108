"""`python -m bot`: the same as the `gamenight` command (bot/app/main.py)."""

import sys

from bot.app.main import main

sys.exit(main())
