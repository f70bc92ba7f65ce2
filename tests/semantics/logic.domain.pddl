; Feature-dense task for tests/semantics_agree.rs: `either` types, a
; subtype with a constant, equality, disjunctive and implicative
; preconditions, flips by two opposite conditional effects, a quantified
; conditional numeric effect, a derived predicate over a numeric
; comparison and one over a universal implication, and assign/increase
; reading the same fluent.
(define (domain logic)
  (:requirements :adl :derived-predicates :numeric-fluents)
  (:types a b - object c - a)
  (:constants k - c)
  (:predicates (p ?x - (either a b)) (q ?x ?y - object) (r) (s ?x - a) (big ?x - b))
  (:functions (n ?x - b) (m))
  (:derived (big ?x - b) (> (n ?x) 2))
  (:derived (r)
    (and (exists (?x - b) (big ?x))
         (forall (?y - a) (imply (s ?y) (p ?y)))))
  (:action flip
    :parameters (?x - (either a b))
    :precondition (or (not (p ?x)) (= ?x k))
    :effect (and (when (p ?x) (not (p ?x))) (when (not (p ?x)) (p ?x))))
  (:action link
    :parameters (?x ?y - object)
    :precondition (and (not (= ?x ?y)) (not (q ?x ?y)) (imply (p ?x) (p ?y)))
    :effect (and (q ?x ?y) (forall (?z - b) (when (q ?y ?z) (increase (n ?z) 1)))))
  (:action grow
    :parameters (?x - b)
    :precondition (and (exists (?y - a) (q ?y ?x)) (< (m) 8))
    :effect (and (increase (n ?x) (+ (m) 1)) (assign (m) (* (m) 2))))
  (:action mark
    :parameters (?y - a)
    :precondition (forall (?x - b) (or (big ?x) (q ?y ?x)))
    :effect (s ?y)))
