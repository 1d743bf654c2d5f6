"""The frozen result types of the analyses, with their ``to_json`` (imports model/ only)."""
