(define (problem closure-1) (:domain closure)
  (:objects n1 n2 n3 n4 - node)
  (:init (edge root n1) (edge n1 n2) (edge n3 n4))
  (:goal (and (tagged n2) (rooted n4) (forall (?n - node) (imply (tagged ?n) (rooted ?n))))))
