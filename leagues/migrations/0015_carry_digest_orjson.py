"""The digest of each meeting's live hands in its MeetingCarry, written anew as
``services.hands_digest`` now writes it (by orjson, issue 12). A stored digest that no longer
matches would not give a wrong figure: the next meeting's pages would replay this one each
time instead of reading what it left open.

Only a digest that matched the meeting's hands (as the code before wrote it) is written anew.
One that did not says the cache is stale (a hand changed outside the writers, a repair by
hand): it is left not matching (empty), so that the meeting is replayed and not trusted, until
``verify_replays --rebuild`` writes it."""

import hashlib
import json

from django.db import migrations


def digest_before(payloads):
    # services.hands_digest as the code before this migration wrote it.
    return hashlib.sha256(json.dumps(list(payloads), sort_keys=True).encode()).hexdigest()


def write_digests(apps, schema_editor):
    from leagues.table.replay import hands_digest

    alias = schema_editor.connection.alias
    Carry = apps.get_model("leagues", "MeetingCarry")
    Hand = apps.get_model("leagues", "Hand")
    carries = {carry.meeting_id: carry for carry in Carry.objects.using(alias).all()}
    if not carries:
        return
    payloads = {meeting_id: [] for meeting_id in carries}
    live = Hand.objects.using(alias).filter(deleted_at=None).order_by("meeting_id", "position")
    for meeting_id, payload in live.values_list("meeting_id", "payload").iterator(chunk_size=2000):
        if meeting_id in payloads:
            payloads[meeting_id].append(payload)
    changed = []
    for meeting_id, carry in carries.items():
        matched = carry.hands_digest == digest_before(payloads[meeting_id])
        digest = hands_digest(payloads[meeting_id]) if matched else ""
        if carry.hands_digest != digest:
            carry.hands_digest = digest
            changed.append(carry)
    Carry.objects.using(alias).bulk_update(changed, ["hands_digest"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("leagues", "0014_session_with_user")]

    # Back: the digests stay as written here; with the code before, each differs, which costs
    # a replay of its meeting (not a wrong figure) until verify_replays --rebuild writes it.
    operations = [migrations.RunPython(write_digests, migrations.RunPython.noop, elidable=True)]
