"""Presentation: number formats, tables, charts, the report and the files they are written to."""
