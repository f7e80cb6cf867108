"""The operator's commands that need no Discord connection (health checks, backups...)."""
