# The tasks of the reference comparison, sourced by benches/compare.sh and
# benches/ab_time.sh: the first COMPARE_TASKS (5) tasks of each of these
# domains in tasks.tsv order, plus the extra problems.
#
# The first 12 shared domains, which all three planners handle. Of the rest,
# lama-first rejects the six numeric domains (translator input error) and
# ferroplan rejects philosophers (derived predicates over changing facts);
# pass the domain names to benches/compare.sh to run any of them.
compare_domains=(blocks gripper logistics00 miconic depot driverlog satellite
  rovers zenotravel freecell elevators-sat08-strips visitall-sat11-strips)
compare_extra=${COMPARE_EXTRA-visitall-sat11-strips/problem20.pddl}
