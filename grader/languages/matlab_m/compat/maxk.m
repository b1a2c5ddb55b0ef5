function [values, idx] = maxk(x, k)
% MATLAB's maxk (R2017b) for vectors: the k largest elements, largest first.
  [values, idx] = sort(x, 'descend');
  k = min(k, numel(values));
  values = values(1:k);
  idx = idx(1:k);
end
