"""Worker processes for CPU-bound Python, kept off the event loop: pictures, computer players'
decisions and replay animations. No `discord` here."""
