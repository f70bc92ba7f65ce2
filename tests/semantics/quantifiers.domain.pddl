; Feature-dense task for tests/semantics_agree.rs: quantifiers over a
; type with no objects (exists is false, forall true), a forall inside a
; when inside a forall, equality with a constant, a negated derived
; predicate in a precondition, negation and division in expressions, and
; a comparison with = on fractions.
(define (domain quantifiers)
  (:requirements :adl :derived-predicates :numeric-fluents)
  (:types node ghost)
  (:constants hub - node)
  (:predicates (edge ?a ?b - node) (on ?n - node) (seen ?n - node) (haunted ?g - ghost)
               (covered) (lonely ?n - node))
  (:functions (level ?n - node) (ratio))
  (:derived (covered) (forall (?n - node) (or (seen ?n) (= ?n hub))))
  (:derived (lonely ?n - node) (not (exists (?m - node) (and (edge ?n ?m) (on ?m)))))
  (:action light
    :parameters (?n - node)
    :precondition (and (not (on ?n)) (not (lonely ?n)) (not (exists (?g - ghost) (haunted ?g))))
    :effect (and (on ?n)
                 (forall (?m - node)
                   (when (edge ?n ?m)
                     (and (seen ?m)
                          (forall (?k - node) (when (and (edge ?m ?k) (not (= ?k hub)))
                                                (increase (level ?k) (/ 1 2)))))))))
  (:action dim
    :parameters (?n - node)
    :precondition (and (on ?n) (forall (?g - ghost) (haunted ?g)) (not (= ?n hub)))
    :effect (and (not (on ?n)) (assign (ratio) (- (/ (level ?n) 4)))
                 (when (= (level ?n) 0.5) (seen hub)))))
