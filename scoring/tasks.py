"""Celery tasks for scoring: thin wrappers that fetch by id and call a service."""
