"""Pure game engines: no Discord, no database, no drawing, no clock, no global random."""
