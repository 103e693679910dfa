from urllib.parse import urlencode

from django.shortcuts import redirect
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from portal.middleware import API_PREFIX

from . import services


class SecondFactorMiddleware:
    """Until this session has passed the second step, a person who has it set up sees only the
    page that asks for the code, and a staff member who has not set it up only the page that
    sets it up (the Django admin included). The API keeps its own token authentication."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.open_paths = None

    def __call__(self, request):
        if self.open_paths is None:
            self.open_paths = (
                reverse("second_factor_verify"),
                reverse("second_factor_setup"),
                reverse("logout"),
            )
        user = request.user
        if (
            user.is_authenticated
            and not request.path_info.startswith((API_PREFIX, *self.open_paths))
            and (step := self._step(request))
        ):
            query = urlencode({"next": request.get_full_path()}) if request.method == "GET" else ""
            url = reverse(step) + (f"?{query}" if query else "")
            if request.headers.get("HX-Request"):
                return HttpResponseClientRedirect(url)
            return redirect(url)
        return self.get_response(request)

    @staticmethod
    def _step(request):
        state = services.state(request)
        if state == services.PASSED:
            return None
        if state == services.NOT_SET_UP:
            return "second_factor_setup" if services.required(request.user) else None
        return "second_factor_verify"
