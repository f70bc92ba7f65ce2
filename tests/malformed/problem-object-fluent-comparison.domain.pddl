(define (domain object-fluent-comparison)
  (:requirements :strips :typing :object-fluents)
  (:types loc truck)
  (:predicates (road ?a ?b - loc) (at ?t - truck ?l - loc))
  (:functions (pos ?t - truck) - loc)
  (:action drive
    :parameters (?t - truck ?from ?to - loc)
    :precondition (and (at ?t ?from) (road ?from ?to))
    :effect (and (not (at ?t ?from)) (at ?t ?to) (assign (pos ?t) ?to))))
