function [values, idx] = mink(x, k)
% MATLAB's mink (R2017b) for vectors: the k smallest elements, smallest first.
  [values, idx] = sort(x, 'ascend');
  k = min(k, numel(values));
  values = values(1:k);
  idx = idx(1:k);
end
