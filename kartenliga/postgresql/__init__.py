"""Django's PostgreSQL backend with its batches kept within the parameters a statement may bind."""
