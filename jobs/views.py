from django.http import JsonResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from . import spec


@require_GET
@cache_control(public=True, max_age=3600)
def spec_schema(request):
    """The published JSON Schema of the job-description format, version 1."""
    response = JsonResponse(spec.json_schema(), json_dumps_params={"indent": 2})
    response["Access-Control-Allow-Origin"] = "*"
    return response
