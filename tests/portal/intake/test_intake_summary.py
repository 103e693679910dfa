"""The application form's mistakes are summarised at the top, linked and focused."""

import pytest

from .intake_helpers import form_data, make_window

pytestmark = pytest.mark.django_db


def test_intake_errors_are_summarised_with_links_and_focus(client):
    make_window()
    response = client.post("/design-partners/apply/", form_data(data_size="2.5"))
    html = response.content.decode()
    assert response.status_code == 400
    assert 'class="form-errors error-summary" tabindex="-1" autofocus' in html
    assert 'href="#id_data_size"' in html and "what you typed is kept" in html
