"""The floor's REST API (DRF): one thin view per operation, documented by the OpenAPI schema."""
