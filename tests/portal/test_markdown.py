from portal.markdown import render_markdown


def test_markdown_is_rendered_and_sanitised():
    html = render_markdown(
        "**bold** <script>alert(1)</script> [x](javascript:alert(1)) [ok](https://e31.example)"
    )
    assert "<strong>bold</strong>" in html
    assert "<script" not in html and "javascript:" not in html
    assert 'href="https://e31.example"' in html


def test_empty_text():
    assert render_markdown("") == ""
    assert render_markdown(None) == ""


def test_textarea_line_ends_count_once():
    from portal.widgets import Textarea

    assert Textarea().value_from_datadict({"t": "a\r\nb"}, {}, "t") == "a\nb"
