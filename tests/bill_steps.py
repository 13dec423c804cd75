"""The bill saved as a browser saves it (views/bill.py): "See the split" is a GET with the
inputs, "Save" posts what that page carries (the inputs and the digest of the split shown)."""


def save_bill(client, url, data, **extra):
    shown = client.get(url, data, **extra)
    assert shown.status_code == 200, shown.context["form"].errors if shown.context else shown.status_code
    return client.post(url, dict(shown.context["save_inputs"]), **extra)
