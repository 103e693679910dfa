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


def test_markdown_as_text_for_plain_text_emails():
    from portal.markdown import markdown_as_text

    text = markdown_as_text(
        "We **fixed** it: see [the note](https://e31.example/n/7).\n\n- one\n- two & three\n\n"
        "<script>alert(1)</script>https://e31.example/whole/link?a=1&b=2"
    )
    assert text.startswith(
        "We fixed it: see the note (https://e31.example/n/7).\n\n- one\n- two & three"
    )
    assert "<script>" not in text
    assert "https://e31.example/whole/link?a=1&b=2" in text
