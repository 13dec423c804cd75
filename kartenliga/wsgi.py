import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kartenliga.settings")
application = get_wsgi_application()

# gunicorn imports this module in each worker it starts: the worker loads what pages load on
# first use (templates, both languages, the games) before it takes its first request.
from kartenliga.warmup import warm_up  # noqa: E402 (needs the apps loaded by the line above)

warm_up()

# A replay allocates thousands of short-lived dicts per request. With the default threshold
# (700) the collector runs several times per request and now and then walks every object
# Django loaded at start-up. Freezing those start-up objects and collecting the youngest
# generation less often takes a tenth off the calculate endpoint's latency (make bench);
# reference cycles are still collected, only in larger batches.
gc.freeze()
gc.set_threshold(10_000, 20, 20)
