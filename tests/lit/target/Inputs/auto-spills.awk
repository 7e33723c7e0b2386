# Reads `blkc inspect` output: for each `assumed variant NAME` (an __auto
# entry), the next `sm_…: N registers, S B spill stores, L B spill loads`
# line; prints "NAME: S L" (with SPILLS when either is not 0) and a count.
/assumed variant / {
  for (i = 1; i <= NF; ++i) if ($i == "variant") name = $(i + 1)
  next
}
name != "" && /registers, [0-9]+ B spill stores/ {
  for (i = 1; i <= NF; ++i) {
    if ($i == "stores,") stores = $(i - 3)
    if ($i == "loads,") loads = $(i - 3)
  }
  ++n
  if (stores != 0 || loads != 0) { ++bad; print name ": " stores " " loads " SPILLS" }
  else print name ": " stores " " loads
  name = ""
}
END { print n + 0 " __auto entries, " bad + 0 " with spills" }
