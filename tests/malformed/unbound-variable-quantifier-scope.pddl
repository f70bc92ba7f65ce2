(define (domain unbound-quantifier-scope)
  (:requirements :adl)
  (:predicates (p ?x) (q ?x))
  (:action a
    :precondition (and (exists (?y) (p ?y)) (q ?y))
    :effect (forall (?z) (when (p ?z) (q ?y)))))
