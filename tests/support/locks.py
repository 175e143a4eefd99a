"""Row locks held by another connection, as another worker or request would hold them."""

import contextlib
import threading


@contextlib.contextmanager
def row_locked(model, pk, seconds: float = 30):
    """For the block, a thread on a connection of its own holds ``model`` row ``pk`` FOR UPDATE
    (released at the block's end, or after ``seconds``). Needs a transactional test (PostgreSQL)."""
    from django.db import connection, transaction

    locked, release = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                model.objects.select_for_update().get(pk=pk)
                locked.set()
                release.wait(seconds)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert locked.wait(10), f"the lock on {model.__name__} {pk} was not taken"
        yield
    finally:
        release.set()
        holder.join()
