quy xx- cfg0 chrF 0.2858 margin 0.1520 ratio 1.037 kept 0.338
aym xx- cfg0 chrF 0.2377 margin 0.1035 ratio 0.984 kept 0.400
xx- cfg0 avg chrF 0.2618 margin 0.1277 {}
