"""A generated section of a docs page: the text between its two marker lines, read and written in place.

tools/model_report.py and tools/english_report.py each write one such section of docs/model.md; a test checks the
page holds each tool's current output.
"""


def section_in(page_text: str, start_marker: str, end_marker: str) -> str:
    """The text between the line `start_marker` and `end_marker`."""
    start = page_text.index(start_marker + "\n") + len(start_marker) + 1
    return page_text[start:page_text.index(end_marker, start)]


def with_section(page_text: str, start_marker: str, end_marker: str, section: str) -> str:
    """The page with the text between its markers replaced by `section`; the rest of the page as it was."""
    start = page_text.index(start_marker + "\n") + len(start_marker) + 1
    return page_text[:start] + section + page_text[page_text.index(end_marker, start):]
