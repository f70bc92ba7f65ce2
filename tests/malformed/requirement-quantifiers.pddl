(define (domain no-quantifiers)
  (:requirements :strips)
  (:predicates (p ?x) (q ?x))
  (:action a
    :precondition (and (exists (?x) (p ?x)) (forall (?y) (q ?y)))
    :effect (forall (?z) (p ?z))))
