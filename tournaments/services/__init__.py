"""Services: the only code that writes the floor's rows. Each runs in one transaction.

Names follow `<entity>_<verb>` with keyword-only arguments. Every refusal is a `FloorError` with a
stable code and a sentence for the director (the API answers 400 or 409 with both).
"""
