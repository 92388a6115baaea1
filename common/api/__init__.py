"""The API kit of both apps: `FloorApi` and its input checks (`base`), the error bodies of the
schema (`errors`), writes answered once per `client_id` (`once`), the field bounds (`limits`)
and who may call (`permissions`)."""
