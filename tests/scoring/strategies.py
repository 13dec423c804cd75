"""hypothesis strategies shared by the property tests."""

from hypothesis import strategies as st

# Any JSON value a client might send in a field, malformed ones included.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)

# Doppelkopf: the house-rule options that change figures or the deal, over their
# whole range (each left out now and then: the preset's value then holds).
doppelkopf_house_rules = st.fixed_dictionaries(
    {},
    optional={
        "bock_stacking": st.sampled_from(["queue", "stack"]),
        "announcement_points": st.integers(1, 3),
        "karlchen_gefangen": st.booleans(),
    },
)
