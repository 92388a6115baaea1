"""What both apps build on (issue 28): who is who (`roles`, `actors`), the refusals (`errors`),
the bounds of a value (`limits`) and the API kit (`common.api`: the base view, its error bodies,
its writes answered once, its permissions). It imports neither app (an import contract), only
the rules engine's refusal kinds."""
