; `:adl` implies typing, negation, disjunction, equality, quantifiers and
; conditional effects, so only the numeric comparison is warned about.
(define (domain adl-implies)
  (:requirements :adl)
  (:types block)
  (:predicates (p ?x - block) (q ?x - block))
  (:functions (n))
  (:action a
    :parameters (?x - (either block))
    :precondition (and (not (p ?x)) (or (p ?x) (imply (q ?x) (p ?x)))
                       (exists (?y - block) (not (= ?x ?y)))
                       (forall (?z - block) (q ?z))
                       (< (n) 3))
    :effect (forall (?z - block) (when (q ?z) (p ?z)))))
